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
	ALU 3, @10, KC0[], KC1[]
	TEX 1 @6
	ALU 3, @14, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	Fetch clause starting at 6:
	  TEX_SAMPLE T1.XYZW, T1.XYZW RID:1 SID:1 CT:NNNN
	  TEX_SAMPLE T0.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN
	ALU clause starting at 10:
	  MUL_IEEE * T1.W, T1.W, 0.5,  
	  MUL_IEEE * T1.Z, T1.Z, 0.5,  
	  MUL_IEEE * T1.Y, T1.Y, 0.5,  
	  MUL_IEEE * T1.X, T1.X, 0.5,  
	ALU clause starting at 14:
	  ADD * T0.W, T0.W, T1.W,  
	  ADD * T0.Z, T0.Z, T1.Z,  
	  ADD * T0.Y, T0.Y, T1.Y,  
	  ADD * T0.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
