	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	261
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU_PUSH_BEFORE 10, @10, KC0[], KC1[]
	JUMP @6 POP:1
	ALU_PUSH_BEFORE 4, @21, KC0[], KC1[]
	JUMP @5 POP:1
	ALU_POP_AFTER 8, @26, KC0[], KC1[]
	ALU_POP_AFTER 4, @35, KC0[], KC1[]
	ALU 14, @40, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 10:
	  MOV   T1.Y, T0.X,  
	  FLT_TO_INT * T0.X, T0.X,  
	  MOV   T1.Z, T0.Y,  
	  MOV   T1.W, T0.Z,  
	  MOV * T2.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV   T0.Z, PS,  
	  MOV   T3.W, literal.x,  
	  SETGT_INT * T4.W, 1, T0.X,  
	1(1.401298e-45), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 21:
	  MOV   T0.Z, literal.x,  
	  MOV   T3.W, literal.y,  
	  SETGT_INT * T4.W, T0.X, 1,  
	0(0.000000e+00), 1(1.401298e-45)
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 26:
	  MOV   T0.Z, literal.x,  
	  SETE_INT * T3.W, T0.X, literal.y,  
	1(1.401298e-45), 2(2.802597e-45)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MUL_IEEE   T1.X, T1.Z, T1.W, Pred_sel_one 
	  MOV * T0.Z, literal.x, Pred_sel_one 
	0(0.000000e+00), 0(0.000000e+00)
	  MOV * T3.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 35:
	  SUB_INT * T3.W, 0.0, T3.W,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD * T1.X, T1.Z, 1.0, Pred_sel_one 
	  MOV * T3.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 40:
	  SUB_INT * T3.W, 0.0, T3.W,  
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  SETNE_INT   T0.Z, T0.X, 0.0, Pred_sel_zero 
	  MOV * T2.W, literal.x, Pred_sel_zero 
	1(1.401298e-45), 0(0.000000e+00)
	  AND_INT * T3.W, T0.Z, 1,  
	  SETE_INT * T3.W, PV.W, 0.0,  
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MOV   T1.X, T0.W, Pred_sel_one 
	  MOV * T2.W, literal.x, Pred_sel_one 
	0(0.000000e+00), 0(0.000000e+00)
	  SETE_INT * T0.W, T2.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MOV * T1.X, literal.x, Pred_sel_zero 
	1056964608(5.000000e-01), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
