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
	ALU 3, @4, KC0[], KC1[]
	EXPORT T0.XWYZ
	CF_END
	PAD
	ALU clause starting at 4:
	  ADD * T0.W, |T0.X|, 0.5,  
	  LOG_IEEE * T0.X, PV.W,  
	  MUL NON-IEEE * T1.W, T0.Y, PS,  
	  EXP_IEEE * T0.X, PV.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
