	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	259
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	CALL_FS
	ALU 3, @6, KC0[], KC1[]
	EXPORT T2
	EXPORT T1
	EXPORT T0.XYZW
	CF_END
	ALU clause starting at 6:
	  ADD * T2.W, T0.W, T1.W,  
	  ADD * T2.Z, T0.Z, T1.Z,  
	  ADD * T2.Y, T0.Y, T1.Y,  
	  ADD * T2.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
