	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	3
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 20, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  MULADD_IEEE   T1.W, T0.X, literal.x, 0.5, 
	  MULADD_IEEE * T2.W, T0.Y, literal.x, 0.5, 
	1042479491(1.591549e-01), 0(0.000000e+00)
	  FRACT * T1.W, PV.W,  
	  ADD   T1.Z, PV.W, literal.x,  
	  MULADD_IEEE   T1.W, T0.Z, literal.y, 0.5, 
	  FRACT * T2.W, T2.W,  
	-1090519040(-5.000000e-01), 1042479491(1.591549e-01)
	  ADD   T0.Y, PS, literal.x,  
	  MULADD_IEEE   T0.Z, T0.W, literal.y, 0.5, 
	  FRACT   T0.W, PV.W,  
	  SIN * T0.X, PV.Z,  
	-1090519040(-5.000000e-01), 1042479491(1.591549e-01)
	  ADD   T1.Z, PV.W, literal.x,  
	  FRACT   T0.W, PV.Z,  
	  COS * T0.Y, PV.Y,  
	-1090519040(-5.000000e-01), 0(0.000000e+00)
	  ADD   T0.W, PV.W, literal.x,  
	  SIN * T0.Z, PV.Z,  
	-1090519040(-5.000000e-01), 0(0.000000e+00)
	  COS * T0.W, PV.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
