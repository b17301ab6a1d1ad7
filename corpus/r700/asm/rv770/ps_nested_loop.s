	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	771
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 5, @16, KC0[], KC1[]
	LOOP_START_DX10 @14
	ALU 1, @22, KC0[], KC1[]
	LOOP_START_DX10 @9
	ALU_PUSH_BEFORE 4, @24, KC0[], KC1[]
	JUMP @8 POP:1
	LOOP_BREAK @8
	POP @8 POP:1
	END_LOOP @4
	ALU_PUSH_BEFORE 3, @29, KC0[], KC1[]
	JUMP @13 POP:1
	LOOP_BREAK @13
	POP @13 POP:1
	END_LOOP @2
	EXPORT T0.XYZW
	CF_END
	ALU clause starting at 16:
	  FLT_TO_INT * T0.Z, T0.X,  
	  MOV   T1.W, literal.x,  
	  FLT_TO_INT * T0.W, T0.Y,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV * T0.Y, PV.W,  
	  MOV * T0.X, T1.W,  
	ALU clause starting at 22:
	  MOV   T1.X, T1.W,  
	  MOV * T1.Y, T1.W,  
	ALU clause starting at 24:
	  ADD_INT   T0.X, T0.X, T1.Y,  
	  ADD_INT * T1.X, T1.X, 1,  
	  ADD_INT   T1.Y, T1.Y, T0.Y,  
	  SETGT_INT * T2.W, T0.W, PS,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 29:
	  ADD_INT   T0.X, T0.X, 1,  
	  ADD_INT * T0.Y, T0.Y, 1,  
	  SETGT_INT * T2.W, T0.Z, PV.Y,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 3
	.section	".note.GNU-stack","",@progbits
