	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	259
	.long	165900
	.long	64
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU_PUSH_BEFORE 2, @6, KC0[], KC1[]
	JUMP @3 POP:1
	ALU_POP_AFTER 2, @9, KC0[], KC1[]
	ALU 3, @12, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	ALU clause starting at 6:
	  SETGT_DX10 * T2.W, T0.X, 0.0,  
	  NOT_INT * T2.W, PV.W,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 9:
	  ADD * T2.W, T0.Y, literal.x,  
	-1090519040(-5.000000e-01), 0(0.000000e+00)
	  KILLGT * T2.W (MASKED), 0.0, PV.W,  
	ALU clause starting at 12:
	  MUL_IEEE * T0.W, T0.W, T1.W,  
	  MUL_IEEE * T0.Z, T0.Z, T1.Z,  
	  MUL_IEEE * T0.Y, T0.Y, T1.Y,  
	  MUL_IEEE * T0.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
