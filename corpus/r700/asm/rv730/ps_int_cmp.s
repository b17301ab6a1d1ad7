	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	3
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 14, @4, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T0.Z, T1.Y,  
	  FLT_TO_INT * T0.W, T1.X,  
	  FLT_TO_INT * T0.X, T0.X,  
	  SETGE_INT   T1.W, PS, T0.W,  
	  FLT_TO_INT * T0.Y, T0.Y,  
	  CNDE_INT   T1.X, PV.W, PS, T0.Z, 
	  SETGE_UINT   T1.W, T0.X, T0.W,  
	  MOV * T2.W, literal.x,  
	9(1.261169e-44), 0(0.000000e+00)
	  CNDE_INT   T1.Y, PV.W, literal.x, PS, 
	  SETE_INT * T1.W, T0.Y, T0.Z,  
	7(9.809089e-45), 0(0.000000e+00)
	  AND_INT   T1.Z, PV.W, 1,  
	  SETGT_INT * T1.W, 0.0, T0.X,  
	  CNDE_INT * T1.W, PV.W, T0.X, T0.W, 
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
