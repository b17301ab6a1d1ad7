	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	515
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 4, @10, KC0[], KC1[]
	LOOP_START_DX10 @7
	ALU_PUSH_BEFORE 17, @15, KC0[], KC1[]
	JUMP @6 POP:1
	LOOP_BREAK @6
	POP @6 POP:1
	END_LOOP @2
	ALU 2, @33, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 10:
	  MOV   T1.X, literal.x,  
	  MOV   T1.Z, literal.y,  
	  MOV   T0.W, literal.x,  
	  FLT_TO_INT * T1.Y, T0.X,  
	0(0.000000e+00), 1(1.401298e-45)
	ALU clause starting at 15:
	  AND_INT   T2.W, T0.W, 1,  
	  MOV * T1.W, T1.Z,  
	  SETNE_INT * T2.W, PV.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  INT_TO_FLT * T1.W, T0.W, Pred_sel_zero 
	  ADD * T1.X, T1.X, T1.W, Pred_sel_zero 
	  SETGT_DX10 * T1.W, T1.X, literal.x, Pred_sel_zero 
	1101004800(2.000000e+01), 0(0.000000e+00)
	  NOT_INT * T1.W, T1.W, Pred_sel_zero 
	  AND_INT   T2.W, T1.W, 1,  
	  MOV * T1.W, T1.Z,  
	  SETE_INT * T2.W, PV.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT * T0.W, T0.W, 1, Pred_sel_zero 
	  SETGE_INT * T1.W, T0.W, T1.Y, Pred_sel_zero 
	  AND_INT * T1.W, T1.W, 1,  
	  SETE_INT * T1.W, PV.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 33:
	  MOV   T1.Y, T0.X,  
	  MOV   T1.Z, T0.Y,  
	  MOV * T1.W, T0.Z,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.section	".note.GNU-stack","",@progbits
