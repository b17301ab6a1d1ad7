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
	TEX 0 @4
	ALU 3, @6, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	Fetch clause starting at 4:
	  TEX_SAMPLE T0.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN
	ALU clause starting at 6:
	  MUL_IEEE * T0.W, T0.W, T1.W,  
	  MUL_IEEE * T0.Z, T0.Z, T1.Z,  
	  MUL_IEEE * T0.Y, T0.Y, T1.Y,  
	  MUL_IEEE * T0.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
