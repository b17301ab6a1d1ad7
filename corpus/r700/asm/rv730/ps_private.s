	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	22
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	ALU 37, @4, KC0[], KC1[]
	EXPORT T21.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  MOV   T21.X, T0.X,  
	  MOV   T21.Y, T0.Y,  
	  MOV   T21.Z, T0.Z,  
	  MOV * T21.W, T0.W,  
	  FLT_TO_INT * T0.Y, PV.Y,  
	  FLT_TO_INT * T0.Z, T21.X,  
	  AND_INT   T0.W, PS, literal.x,  
	  AND_INT * T1.W, T0.Y, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  LSHL   T1.W, PS, literal.x,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.W, PS, literal.x,  
	  ADD_INT * T1.W, PV.W, literal.y,  
	16(2.242078e-44), 48(6.726233e-44)
	  LSHR   T1.W, PS, literal.x,  
	  LSHR * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  MOVA_INT * AR.x (MASKED), PS,  
	  MOV   T(0 + AR.x).X+, T21.X,  
	  MOV   T0.Y, T11.X,  BS:VEC_120/SCL_212
	  MOV * T0.Z, T10.X,  BS:VEC_201
	  MOV * T0.W, T9.X,  
	  MOV   T1.Y, T8.X,  
	  MOV   T1.Z, T7.X,  BS:VEC_120/SCL_212
	  MOV * T2.Y, T6.X,  
	  MOV   T2.Z, T5.X,  
	  MOV * T2.W, T4.X,  BS:VEC_120/SCL_212
	  MOV   T12.X, PV.W,  
	  MOV * T13.X, PV.Z,  
	  MOV   T14.X, T2.Y,  
	  MOV * T15.X, T1.Z,  
	  MOV   T16.X, T1.Y,  
	  MOV * T17.X, T0.W,  
	  MOV   T18.X, T0.Z,  
	  MOV * T19.X, T0.Y,  
	  MOVA_INT * AR.x (MASKED), T1.W,  
	  MOV * T21.Z, T(0 + AR.x).X+,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
