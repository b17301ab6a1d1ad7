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
	ALU_PUSH_BEFORE 6, @12, KC0[], KC1[]
	JUMP @3 POP:0
	ALU 3, @19, KC0[], KC1[]
	ELSE @10 POP:1
	ALU_PUSH_BEFORE 2, @23, KC0[], KC1[]
	JUMP @7 POP:0
	ALU 3, @26, KC0[], KC1[]
	ELSE @9 POP:1
	ALU_POP_AFTER 0, @30, KC0[], KC1[]
	POP @10 POP:1
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 12:
	  MOV   T1.Y, T0.X,  
	  FLT_TO_INT * T0.X, T0.X,  
	  MOV   T1.Z, T0.Y,  
	  MOV * T1.W, T0.Z,  
	  MOV   T1.X, T0.W,  
	  SETGT_INT * T0.W, 1, T0.X,  
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 19:
	  SETNE_INT * T0.W, T0.X, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MOV * T1.X, literal.x, Pred_sel_zero 
	1056964608(5.000000e-01), 0(0.000000e+00)
	ALU clause starting at 23:
	  SETGT_INT * T0.W, literal.x, T0.X,  
	2(2.802597e-45), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 26:
	  SETE_INT * T0.W, T0.X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MUL_IEEE * T1.X, T1.Z, T1.W, Pred_sel_zero 
	ALU clause starting at 30:
	  ADD * T1.X, T1.Z, 1.0,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
