	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	257
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	CALL_FS
	EXPORT T0
	EXPORT T0.XYZW
	CF_END
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
