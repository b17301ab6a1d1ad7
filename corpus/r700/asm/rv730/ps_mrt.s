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
	ALU 3, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 4:
	  MUL_IEEE * T1.W, T0.W, T1.W,  
	  MUL_IEEE * T1.Z, T0.Z, T1.Z,  
	  MUL_IEEE * T1.Y, T0.Y, T1.Y,  
	  MUL_IEEE * T1.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
