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
	ALU 23, @4, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T0.Y, T1.X,  
	  FLT_TO_INT * T0.X, T0.X,  
	  AND_INT   T1.Z, PS, literal.x,  
	  OR_INT * T0.W, T0.Y, 1,  
	1023(1.433528e-42), 0(0.000000e+00)
	  AND_INT * T1.W, PV.W, literal.x,  
	15(2.101948e-44), 0(0.000000e+00)
	  UINT_TO_FLT * T0.Y, PV.W,  
	  RECIP_IEEE * T0.Z, PS,  
	  UINT_TO_FLT * T0.W, T1.Z,  
	  MUL_IEEE * T2.W, PS, T0.Z,  
	  TRUNC * T2.W, PV.W,  
	  MULADD_IEEE * T0.W, -PV.W, T0.Y, T0.W, 
	  SETGE * T0.W, |PV.W|, |T0.Y|,  
	  CNDE   T0.W, PV.W, 0.0, literal.x, 
	  FLT_TO_UINT * T0.Y, T2.W,  
	1(1.401298e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PS, PV.W,  
	  AND_INT   T1.X, PV.W, literal.x,  
	  MULLO_INT * T0.Y, PV.W, T1.W,  
	1023(1.433528e-42), 0(0.000000e+00)
	  SUB_INT * T0.W, T0.X, PS,  
	  AND_INT * T1.Y, PV.W, literal.x,  
	1023(1.433528e-42), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
