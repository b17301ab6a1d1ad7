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
	ALU 4, @4, KC0[], KC1[]
	EXPORT T0.ZZXY
	CF_END
	PAD
	ALU clause starting at 4:
	  DOT4   T0.X (MASKED), T0.X, T1.X,  
	  DOT4   T0.Y (MASKED), T0.Y, T1.Y,  
	  DOT4   T0.Z, T0.Z, T1.Z,  
	  DOT4 * T0.W (MASKED), T0.W, T1.W,  
	  MOV * T0.Y, T1.Y,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
