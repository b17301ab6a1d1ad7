	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	773
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 6, @18, KC0[], KC1[]
	LOOP_START_DX10 @14
	ALU 0, @25, KC0[], KC1[]
	LOOP_START_DX10 @9
	ALU_PUSH_BEFORE 12, @26, KC0[], KC1[]
	JUMP @8 POP:1
	LOOP_BREAK @8
	POP @8 POP:1
	END_LOOP @4
	ALU_PUSH_BEFORE 2, @39, KC0[], KC1[]
	JUMP @13 POP:1
	LOOP_BREAK @13
	POP @13 POP:1
	END_LOOP @2
	ALU 2, @42, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 18:
	  MOV * T0.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV   T1.X, PV.W,  
	  MOV   T1.Z, literal.x,  
	  MOV   T1.W, literal.y,  
	  FLT_TO_INT * T1.Y, T0.X,  
	1(1.401298e-45), 0(0.000000e+00)
	ALU clause starting at 25:
	  MOV * T2.X, T0.W,  
	ALU clause starting at 26:
	  ADD_INT   T2.W, T1.W, T2.X,  
	  MOV * T3.W, T1.Z,  
	  SETGT_INT * T4.W, PV.W, literal.x,  
	5(7.006492e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT   T2.X, T2.X, 1, Pred_sel_zero 
	  INT_TO_FLT * T2.Y, T2.W, Pred_sel_zero 
	  ADD   T1.X, T1.X, T2.Y, Pred_sel_zero 
	  SETGT_INT * T3.W, T2.X, literal.x, Pred_sel_zero BS:VEC_120/SCL_212
	3(4.203895e-45), 0(0.000000e+00)
	  AND_INT * T2.W, T3.W, 1,  
	  SETE_INT * T2.W, PV.W, 0.0,  
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
