	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	1
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	ALU 2, @6, KC0[], KC1[]
	VTX 0 @4
	EXPORT T0.XYZW
	CF_END
	Fetch clause starting at 4:
	VTX_READ_eg T0, T0.X, 0
	ALU clause starting at 6:
	  FLT_TO_INT * T0.X, T0.X,  
	  AND_INT * T0.X, PS, literal.x,  
	15(2.101948e-44), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
