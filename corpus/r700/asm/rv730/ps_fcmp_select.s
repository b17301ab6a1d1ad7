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
	ALU 8, @4, KC0[], KC1[]
	EXPORT T2.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  SETGT * T1.W, T0.X, T1.X,  
	  CNDE   T2.X, PV.W, T1.Y, T0.Y, 
	  SETE * T1.W, T0.Z, T1.Z,  
	  CNDE   T2.Y, PV.W, literal.x, 1.0, 
	  CNDGE   T2.Z, T0.W, T0.W, T0.X, 
	  SETNE * T0.W, T0.X, T0.Y,  
	1073741824(2.000000e+00), 0(0.000000e+00)
	  CNDE * T2.W, PV.W, T1.Z, literal.x, 
	1077936128(3.000000e+00), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
