	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	518
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 9, @14, KC0[], KC1[]
	LOOP_START_DX10 @9
	ALU 1, @24, KC0[], KC1[]
	VTX 0 @12
	ALU_PUSH_BEFORE 8, @26, KC0[], KC1[]
	JUMP @8 POP:1
	LOOP_BREAK @8
	POP @8 POP:1
	END_LOOP @2
	ALU 3, @35, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	Fetch clause starting at 12:
	VTX_READ_eg T4, T3.X, 0
	ALU clause starting at 14:
	  MOV   T1.X, 0.0,  
	  MOV   T1.Y, 0.0,  
	  MOV   T1.Z, 0.0,  
	  MOV   T1.W, 0.0,  
	  MOV * T2.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	  FLT_TO_INT * T2.Y, T0.X,  
	  MOV   T2.X, T2.W,  
	  AND_INT * T3.W, PS, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	ALU clause starting at 24:
	  LSHR * T3.X, T2.W, literal.x,  
	4(5.605194e-45), 0(0.000000e+00)
	ALU clause starting at 26:
	  ADD_INT * T2.X, T2.X, 1,  
	  SETGE_INT * T5.W, T3.W, PV.X,  
	  ADD   T1.X, T1.X, T4.X,  
	  ADD   T1.Y, T1.Y, T4.Y,  
	  ADD   T1.Z, T1.Z, T4.Z,  
	  ADD_INT   T2.W, T2.W, literal.x,  
	  ADD * T1.W, T1.W, T4.W,  
	16(2.242078e-44), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), T5.W, 0.0,  
	ALU clause starting at 35:
	  ADD * T0.W, T1.W, T0.W,  
	  ADD * T0.Z, T1.Z, T0.Z,  
	  ADD * T0.Y, T1.Y, T0.Y,  
	  ADD * T0.X, T1.X, T0.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.section	".note.GNU-stack","",@progbits
