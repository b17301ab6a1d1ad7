	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	7
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 44, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T0.Z, T1.X,  
	  AND_INT   T0.W, PS, literal.x,  
	  FLT_TO_INT * T0.Z, T0.X,  
	7(9.809089e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.W, 1,  
	  SETGT_INT * T1.W, 0.0, PV.W,  
	  ADD_INT * T2.W, T0.W, PV.W,  
	  XOR_INT * T2.W, PV.W, T1.W,  
	  RECIP_UINT * T0.X, PV.W,  
	  SUB_INT   T3.W, 0.0, T2.W,  
	  FLT_TO_INT * T0.Y, T0.Y,  
	  SETGT_INT   T4.W, 0.0, PS,  
	  MULLO_INT * T1.X, PV.W, T0.X,  
	  SETGT_INT   T1.Z, 0.0, T0.Z,  
	  ADD_INT   T3.W, T0.Y, PV.W,  
	  MULHI * T0.Y, T0.X, PS,  
	  ADD_INT   T2.Z, T0.X, PS,  
	  XOR_INT   T3.W, PV.W, T4.W,  
	  ADD_INT * T5.W, T0.Z, PV.Z,  
	  XOR_INT   T5.W, PS, T1.Z,  
	  MULHI * T0.X, PV.W, PV.Z,  
	  MULHI * T0.Y, PV.W, T2.Z,  
	  MULLO_INT * T1.X, PS, T2.W,  
	  SUB_INT   T5.W, T5.W, PS,  
	  MULLO_INT * T0.X, T0.X, T2.W,  
	  SUB_INT   T1.Y, T3.W, PS,  
	  ADD_INT   T2.Z, T0.Y, 1,  
	  SETGE_UINT   T3.W, PV.W, T2.W,  
	  SUB_INT * T6.W, PV.W, T2.W,  
	  CNDE_INT   T2.Y, PV.W, T5.W, PS, BS:VEC_021/SCL_122
	  CNDE_INT   T2.Z, PV.W, T0.Y, PV.Z, 
	  SETGE_UINT   T3.W, PV.Y, T2.W,  
	  SUB_INT * T5.W, PV.Y, T2.W,  
	  CNDE_INT   T3.Z, PV.W, T1.Y, PS, 
	  ADD_INT   T3.W, PV.Z, 1,  
	  SETGE_UINT * T5.W, PV.Y, T2.W,  
	  CNDE_INT   T0.Y, PS, T2.Z, PV.W, 
	  XOR_INT   T1.Z, T1.Z, T1.W,  BS:VEC_021/SCL_122
	  SETGE_UINT   T1.W, PV.Z, T2.W,  
	  SUB_INT * T2.W, PV.Z, T2.W,  
	  CNDE_INT   T1.W, PV.W, T3.Z, PS, 
	  XOR_INT * T2.W, PV.Y, PV.Z,  
	  SUB_INT   T0.X, PS, T1.Z,  
	  XOR_INT * T1.W, PV.W, T4.W,  
	  SUB_INT * T0.Y, PV.W, T4.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
