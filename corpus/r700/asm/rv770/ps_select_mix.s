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
	ALU 7, @4, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  FLT_TO_INT * T1.Y, T1.Y,  
	  FLT_TO_INT * T0.Y, T0.Y,  
	  FLT_TO_INT * T0.X, T0.X,  
	  SETGT_INT   T2.W, PS, T0.Y,  
	  FLT_TO_INT * T0.X, T1.X,  
	  CNDE_INT   T1.X, PV.W, T0.W, T0.Z, 
	  SETGT * T0.W, T1.W, T1.Z,  
	  CNDE * T1.Y, PV.W, T1.Y, T0.X, 
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
