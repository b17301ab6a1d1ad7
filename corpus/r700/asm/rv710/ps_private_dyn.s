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
	ALU 10, @4, KC0[], KC1[]
	EXPORT T0.YWXZ
	CF_END
	PAD
	ALU clause starting at 4:
	  MOV   T1.W, T0.Z,  
	  FLT_TO_INT * T0.W, T0.X,  
	  AND_INT   T1.Z, PS, literal.x,  
	  MOV   T0.W, literal.y,  
	  MOV * T3.W, T0.X,  
	3(4.203895e-45), 1091567616(9.000000e+00)
	  MOVA_INT * AR.x (MASKED), PV.Z,  
	  MOV * T(0 + AR.x).W+, T0.W,  
	  MOV   T0.X, T0.Y,  
	  MOV   T0.Y, T1.W,  
	  MOV * T0.W, T3.W,  BS:VEC_120/SCL_212
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
