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
	ALU 4, @4, KC0[], KC1[]
	EXPORT T0.ZYXW
	CF_END
	PAD
	ALU clause starting at 4:
	  RECIP_IEEE * T0.Y, T1.Y,  
	  MUL_IEEE   T0.W, T0.X, PS,  
	  RECIP_IEEE * T0.Y, T0.Z,  
	  MOV   T0.Z, PV.W,  
	  MOV * T0.W, T1.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
