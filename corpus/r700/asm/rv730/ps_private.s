	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	30
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	ALU 52, @4, KC0[], KC1[]
	EXPORT T29.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  MOV   T29.X, T0.X,  
	  MOV   T29.Y, T0.Y,  
	  MOV   T29.Z, T0.Z,  
	  MOV * T29.W, T0.W,  
	  FLT_TO_INT * T0.Y, PV.X,  
	  AND_INT * T0.W, PS, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  OR_INT * T1.W, PV.W, literal.x,  
	4(5.605194e-45), 0(0.000000e+00)
	  MOVA_INT * AR.x (MASKED), PV.W,  
	  MOV   T(0 + AR.x).X+, T29.X,  
	  MOV   T0.Y, T11.X,  BS:VEC_120/SCL_212
	  MOV * T0.Z, T10.X,  BS:VEC_201
	  MOV   T1.Y, T9.X,  
	  FLT_TO_INT * T1.Z, T29.Y,  
	  AND_INT   T1.W, PS, literal.x,  
	  OR_INT * T0.W, T0.W, literal.y,  
	3(4.203895e-45), 20(2.802597e-44)
	  OR_INT * T1.W, PV.W, literal.x,  
	12(1.681558e-44), 0(0.000000e+00)
	  MOV * T1.Z, T8.X,  
	  MOV   T2.Y, T7.X,  
	  MOV   T2.Z, T6.X,  BS:VEC_120/SCL_212
	  MOV * T2.W, T5.X,  BS:VEC_201
	  MOV * T3.Y, T4.X,  
	  MOV   T12.X, PV.Y,  
	  MOV * T13.X, T2.W,  
	  MOV   T14.X, T2.Z,  
	  MOV * T15.X, T2.Y,  
	  MOV   T16.X, T1.Z,  
	  MOV * T17.X, T1.Y,  
	  MOV   T18.X, T0.Z,  
	  MOV * T19.X, T0.Y,  
	  MOVA_INT * AR.x (MASKED), T1.W,  
	  MOV   T(0 + AR.x).X+, T29.Y,  
	  MOV   T0.Y, T19.X,  
	  MOV   T0.Z, T18.X,  BS:VEC_120/SCL_212
	  MOV * T1.Y, T17.X,  
	  MOV   T1.Z, T16.X,  
	  MOV * T1.W, T15.X,  BS:VEC_120/SCL_212
	  MOV   T2.Y, T14.X,  
	  MOV   T2.Z, T13.X,  BS:VEC_120/SCL_212
	  MOV * T2.W, T12.X,  BS:VEC_201
	  MOV   T20.X, PV.W,  
	  MOV * T21.X, PV.Z,  
	  MOV   T22.X, T2.Y,  
	  MOV * T23.X, T1.W,  
	  MOV   T24.X, T1.Z,  
	  MOV * T25.X, T1.Y,  
	  MOV   T26.X, T0.Z,  
	  MOV * T27.X, T0.Y,  
	  MOVA_INT * AR.x (MASKED), T0.W,  
	  MOV * T29.Z, T(0 + AR.x).X+,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
