	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	2
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 10, @4, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T0.Z, T1.Y,  
	  FLT_TO_INT * T0.W, T1.X,  
	  FLT_TO_INT * T0.X, T0.X,  
	  ADD_INT   T1.X, PS, T0.W,  
	  FLT_TO_INT * T0.Y, T0.Y,  
	  SUB_INT   T1.Y, PS, T0.Z,  
	  AND_INT * T0.W, PS, T0.W,  
	  OR_INT   T0.W, PV.W, literal.x,  
	  MULLO_INT * T1.Z, T0.X, T0.Z,  
	12(1.681558e-44), 0(0.000000e+00)
	  XOR_INT * T1.W, PV.W, T0.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
