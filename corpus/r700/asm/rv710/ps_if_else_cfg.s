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
	ALU 8, @4, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  SETGT_DX10 * T1.W, T0.X, 0.0,  
	  NOT_INT * T1.W, PV.W,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD * T1.X, T0.Y, literal.x, Pred_sel_one 
	1092616192(1.000000e+01), 0(0.000000e+00)
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
