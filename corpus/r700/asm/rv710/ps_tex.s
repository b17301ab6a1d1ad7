	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	1
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	TEX 0 @4
	EXPORT T0.XYZW
	CF_END
	PAD
	Fetch clause starting at 4:
	  TEX_SAMPLE T0.XYZW, T0.XYZW RID:0 SID:0 CT:UUNN
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
