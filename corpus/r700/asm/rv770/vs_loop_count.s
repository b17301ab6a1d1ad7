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
	ALU 2, @12, KC0[], KC1[]
	LOOP_START_DX10 @8
	ALU_PUSH_BEFORE 6, @15, KC0[], KC1[]
	JUMP @7 POP:1
	LOOP_BREAK @7
	POP @7 POP:1
	END_LOOP @3
	ALU 3, @22, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 12:
	  MOV   T2.W, literal.x,  
	  FLT_TO_INT * T2.X, T1.X,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 15:
	  ADD * T0.W, T0.W, T0.W,  
	  MUL_IEEE   T0.Y, T0.Y, 0.5,  
	  ADD_INT * T2.W, T2.W, 1,  
	  MUL_IEEE   T0.X, T0.X, literal.x,  
	  SETGT_INT * T3.W, T2.X, PV.W,  BS:VEC_120/SCL_212
	1069547520(1.500000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 22:
	  ADD * T0.W, T0.W, T1.W,  
	  ADD * T0.Z, T0.Z, T1.Z,  
	  ADD * T0.Y, T0.Y, T1.Y,  
	  ADD * T0.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.section	".note.GNU-stack","",@progbits
