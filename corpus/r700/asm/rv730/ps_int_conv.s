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
	ALU 9, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T0.W, T1.W,  
	  FLT_TO_UINT * T0.Z, |T0.Z|,  
	  FLT_TO_INT * T0.Y, T0.Y,  
	  MULLO_INT * T0.Y, PS, literal.x,  
	1000003(1.401303e-39), 0(0.000000e+00)
	  FLT_TO_INT * T0.X, T0.X,  
	  INT_TO_FLT * T0.X, PS,  
	  UINT_TO_FLT * T0.Y, T0.Y,  
	  UINT_TO_FLT * T0.Z, T0.Z,  
	  INT_TO_FLT * T0.W, T0.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
