	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	259
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU_PUSH_BEFORE 2, @14, KC0[], KC1[]
	JUMP @4 POP:0
	TEX 0 @10
	ALU 3, @17, KC0[], KC1[]
	ELSE @7 POP:1
	TEX 0 @12
	POP @7 POP:1
	EXPORT T0.XYZW
	CF_END
	PAD
	Fetch clause starting at 10:
	  TEX_SAMPLE T1.XYZW, T1.XYZW RID:1 SID:1 CT:NNNN
	Fetch clause starting at 12:
	  TEX_SAMPLE T0.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN
	ALU clause starting at 14:
	  SETGT_DX10 * T2.W, T0.X, 0.0,  
	  NOT_INT * T2.W, PV.W,  
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 17:
	  MUL_IEEE * T0.W, T1.W, T0.W,  
	  MUL_IEEE * T0.Z, T1.Z, T0.Z,  
	  MUL_IEEE * T0.Y, T1.Y, T0.Y,  
	  MUL_IEEE * T0.X, T1.X, T0.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
