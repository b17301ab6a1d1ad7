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
; %bb.0:                                ; %entry
	ALU 3, @4, KC0[CB0:0-32], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  MULADD_IEEE * T0.W, KC0[2].W, T0.W, KC0[5].W, 
	  MULADD_IEEE * T0.Z, KC0[2].Z, T0.Z, KC0[5].Z, 
	  MULADD_IEEE * T0.Y, KC0[2].Y, T0.Y, KC0[5].Y, 
	  MULADD_IEEE * T0.X, KC0[2].X, T0.X, KC0[5].X, 
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
