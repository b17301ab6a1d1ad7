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
	ALU 7, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T0.W, T1.Y,  
	  FLT_TO_INT * T0.Z, T0.X,  
	  MULHI_INT * T0.X, PS, T0.W,  
	  FLT_TO_INT * T1.X, T1.X,  
	  FLT_TO_INT * T0.Y, T0.Y,  
	  MULHI * T0.Y, PS, T1.X,  
	  MULLO_INT * T0.Z, T0.Z, literal.x,  
	65537(9.183690e-41), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
