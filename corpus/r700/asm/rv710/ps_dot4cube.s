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
; %bb.0:
	ALU 7, @4, KC0[], KC1[]
	EXPORT T2.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  CUBE   T2.X, T1.Z, T1.Y,  
	  CUBE   T2.Y, T1.Z, T1.X,  
	  CUBE   T2.Z, T1.X, T1.Z,  
	  CUBE * T2.W, T1.Y, T1.Z,  
	  DOT4   T2.X (MASKED), T0.X, T1.X,  
	  DOT4   T2.Y (MASKED), T0.Y, T1.Y,  
	  DOT4   T2.Z (MASKED), T0.Z, T1.Z,  
	  DOT4 * T2.W, T0.W, T1.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
