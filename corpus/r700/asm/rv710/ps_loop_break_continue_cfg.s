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
	ALU 6, @16, KC0[], KC1[]
	LOOP_START_DX10 @14
	ALU_PUSH_BEFORE 2, @23, KC0[], KC1[]
	JUMP @9 POP:1
	ALU_PUSH_BEFORE 4, @26, KC0[], KC1[]
	JUMP @8 POP:1
	LOOP_BREAK @13
	POP @8 POP:1
	POP @9 POP:1
	ALU_PUSH_BEFORE 2, @31, KC0[], KC1[]
	JUMP @13 POP:1
	LOOP_BREAK @13
	POP @13 POP:1
	END_LOOP @2
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 16:
	  MOV   T1.Y, T0.X,  
	  MOV   T1.Z, T0.Y,  
	  MOV   T1.W, T0.Z,  
	  FLT_TO_INT * T0.X, T0.X,  
	  MOV   T1.X, literal.x,  
	  MOV * T0.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 23:
	  AND_INT * T2.W, T0.W, 1,  
	  SETNE_INT * T2.W, PV.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 26:
	  INT_TO_FLT * T0.Y, T0.W,  
	  ADD * T1.X, T1.X, PS,  
	  SETGT_DX10 * T2.W, PV.X, literal.x,  
	1101004800(2.000000e+01), 0(0.000000e+00)
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 31:
	  ADD_INT * T0.W, T0.W, 1,  
	  SETGT_INT * T2.W, T0.X, PV.W,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.section	".note.GNU-stack","",@progbits
