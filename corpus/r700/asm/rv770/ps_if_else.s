	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	4
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 7, @4, KC0[], KC1[]
	ALU 5, @12, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 4:
	  SETGT_DX10   T2.W, T0.X, 0.0,  
	  MOV * T1.W, literal.x,  
	1(1.401298e-45), 0(0.000000e+00)
	  NOT_INT * T2.W, PV.W,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD   T1.X, T0.Y, literal.x, Pred_sel_one 
	  MOV * T1.W, literal.y, Pred_sel_one 
	1092616192(1.000000e+01), 0(0.000000e+00)
	ALU clause starting at 12:
	  SETE_INT * T1.W, T1.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD * T1.X, T0.Y, T0.Y, Pred_sel_zero 
	  MOV   T1.Y, T0.X,  
	  MOV   T1.Z, T0.Z,  
	  MOV * T1.W, T0.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
