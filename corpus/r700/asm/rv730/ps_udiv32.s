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
	ALU 26, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_UINT * T0.Y, |T0.Y|,  
	  FLT_TO_UINT * T0.X, |T0.X|,  
	  MULLO_INT * T0.X, PS, literal.x,  
	1000003(1.401303e-39), 0(0.000000e+00)
	  ADD_INT   T0.Z, PS, literal.x,  
	  MULLO_INT * T0.X, T0.Y, literal.y,  
	-1294967279(-2.425716e-08), 7919(1.109688e-41)
	  ADD_INT   T0.W, PS, literal.x,  
	  SUB_INT * T1.W, literal.y, PS,  
	7919(1.109688e-41), -7919(nan)
	  RECIP_UINT * T0.X, PV.W,  
	  MULLO_INT * T0.Y, T1.W, PS,  
	  MULHI * T0.Y, T0.X, PS,  
	  ADD_INT * T1.W, T0.X, PS,  
	  MULHI * T0.X, T0.Z, PV.W,  
	  MULLO_INT * T0.Y, PS, T0.W,  
	  SUB_INT * T1.W, T0.Z, PS,  
	  SETGE_UINT   T2.W, PV.W, T0.W,  
	  SUB_INT * T3.W, PV.W, T0.W,  
	  CNDE_INT   T1.W, PV.W, T1.W, PS, 
	  ADD_INT * T3.W, T0.X, 1,  
	  CNDE_INT   T1.Z, T2.W, T0.X, PS, 
	  SETGE_UINT   T2.W, PV.W, T0.W,  
	  SUB_INT * T3.W, PV.W, T0.W,  
	  CNDE_INT   T0.Y, PV.W, T1.W, PS, 
	  ADD_INT * T1.W, PV.Z, 1,  
	  CNDE_INT * T0.X, T2.W, T1.Z, PV.W, 
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
