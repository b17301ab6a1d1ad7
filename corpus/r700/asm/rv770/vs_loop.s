	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	516
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	CALL_FS
	ALU 6, @12, KC0[], KC1[]
	LOOP_START_DX10 @8
	ALU_PUSH_BEFORE 10, @19, KC0[], KC1[]
	JUMP @7 POP:1
	LOOP_BREAK @7
	POP @7 POP:1
	END_LOOP @3
	EXPORT T2.XYZW
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 12:
	  MOV   T1.W, literal.x,  
	  FLT_TO_INT * T1.X, T1.X,  
	0(0.000000e+00), 0(0.000000e+00)
	  MOV   T2.X, T0.X,  
	  MOV   T2.Y, T0.Y,  
	  MOV   T2.Z, T0.Z,  
	  MOV * T2.W, T0.W,  
	ALU clause starting at 19:
	  INT_TO_FLT * T1.Y, T1.W,  
	  SETGT_DX10 * T3.W, PS, literal.x,  
	1084227584(5.000000e+00), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD   T2.X, T2.X, T1.Y, Pred_sel_zero 
	  ADD * T2.W, T2.W, 0.0, Pred_sel_zero 
	  ADD * T2.Z, T2.Z, 0.0, Pred_sel_zero 
	  ADD * T2.Y, T2.Y, 0.0, Pred_sel_zero 
	  ADD_INT * T1.W, T1.W, 1,  
	  SETGT_INT * T3.W, T1.X, PV.W,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.section	".note.GNU-stack","",@progbits
