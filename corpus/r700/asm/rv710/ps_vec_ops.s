	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	2
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 10, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  MULADD_IEEE   T0.W, T0.W, T1.W, -T0.W, 
	  MULADD_IEEE * T1.W, T0.Z, T1.Z, -T0.Z, 
	  ADD * T0.W, PV.W, literal.x,  
	1082130432(4.000000e+00), 0(0.000000e+00)
	  ADD   T0.Z, T1.W, literal.x,  
	  MULADD_IEEE * T1.W, T0.Y, T1.Y, -T0.Y, 
	1077936128(3.000000e+00), 0(0.000000e+00)
	  ADD   T0.Y, PV.W, literal.x,  
	  MULADD_IEEE * T1.W, T0.X, T1.X, -T0.X, 
	1073741824(2.000000e+00), 0(0.000000e+00)
	  ADD * T0.X, PV.W, 1.0,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
