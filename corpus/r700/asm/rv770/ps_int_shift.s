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
	  FLT_TO_INT * T0.Z, T1.X,  
	  AND_INT   T0.W, PS, literal.x,  
	  FLT_TO_INT * T0.X, T0.X,  
	15(2.101948e-44), 0(0.000000e+00)
	  LSHL   T0.X, PS, PV.W,  
	  FLT_TO_INT * T0.Z, T0.Y,  
	  LSHR   T0.Y, PS, T0.W,  
	  ASHR   T0.Z, PS, T0.W,  
	  FLT_TO_INT * T0.W, T1.Y,  
	  LSHL * T0.W, PS, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
