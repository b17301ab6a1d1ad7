	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	772
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 5, @22, KC0[], KC1[]
	LOOP_START_DX10 @18
	ALU 0, @28, KC0[], KC1[]
	LOOP_START_DX10 @13
	ALU_PUSH_BEFORE 3, @29, KC0[], KC1[]
	JUMP @8 POP:1
	LOOP_BREAK @12
	POP @8 POP:1
	ALU_PUSH_BEFORE 5, @33, KC0[], KC1[]
	JUMP @12 POP:1
	LOOP_BREAK @12
	POP @12 POP:1
	END_LOOP @4
	ALU_PUSH_BEFORE 2, @39, KC0[], KC1[]
	JUMP @17 POP:1
	LOOP_BREAK @17
	POP @17 POP:1
	END_LOOP @2
	ALU 2, @42, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 22:
	  MOV * T0.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV   T1.X, PV.W,  
	  MOV   T1.W, literal.x,  
	  FLT_TO_INT * T1.Y, T0.X,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 28:
	  MOV * T1.Z, T0.W,  
	ALU clause starting at 29:
	  ADD_INT * T2.W, T1.W, T1.Z,  
	  SETGT_INT * T3.W, PV.W, literal.x,  
	5(7.006492e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 33:
	  ADD_INT   T1.Z, T1.Z, 1,  
	  INT_TO_FLT * T2.X, T2.W,  
	  ADD   T1.X, T1.X, PS,  
	  SETGT_INT * T2.W, literal.x, PV.Z,  
	4(5.605194e-45), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 39:
	  ADD_INT * T1.W, T1.W, 1,  
	  SETGT_INT * T2.W, T1.Y, PV.W,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 42:
	  MOV   T1.Y, T0.X,  
	  MOV   T1.Z, T0.Y,  
	  MOV * T1.W, T0.Z,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 3
	.section	".note.GNU-stack","",@progbits
