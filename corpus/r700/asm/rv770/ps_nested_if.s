	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	260
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 7, @8, KC0[], KC1[]
	ALU_PUSH_BEFORE 1, @16, KC0[], KC1[]
	JUMP @5 POP:1
	ALU 7, @18, KC0[], KC1[]
	ALU_POP_AFTER 2, @26, KC0[], KC1[]
	ALU 2, @29, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 8:
	  SETGT_DX10   T2.W, T0.X, 0.0,  
	  MOV * T1.W, literal.x,  
	1(1.401298e-45), 0(0.000000e+00)
	  NOT_INT * T2.W, PV.W,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MUL_IEEE   T1.X, T0.W, literal.x, Pred_sel_one 
	  MOV * T1.W, literal.y, Pred_sel_one 
	1077936128(3.000000e+00), 0(0.000000e+00)
	ALU clause starting at 16:
	  SETE_INT * T0.W, T1.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 18:
	  SETGT_DX10   T1.W, 1.0, T0.Y,  
	  MOV * T0.W, literal.x,  
	1(1.401298e-45), 0(0.000000e+00)
	  NOT_INT * T1.W, PV.W,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD   T1.X, T0.Z, literal.x, Pred_sel_one 
	  MOV * T0.W, literal.y, Pred_sel_one 
	-1082130432(-1.000000e+00), 0(0.000000e+00)
	ALU clause starting at 26:
	  SETE_INT * T0.W, T0.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD * T1.X, T0.Z, 1.0, Pred_sel_zero 
	ALU clause starting at 29:
	  MOV   T1.Y, T0.X,  
	  MOV   T1.Z, T0.Y,  
	  MOV * T1.W, T0.Z,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
