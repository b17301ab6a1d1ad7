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
	ALU 7, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  CUBE   T0.X, T0.Z, T0.Y,  
	  CUBE   T0.Y, T0.Z, T0.X,  
	  CUBE   T0.Z, T0.X, T0.Z,  
	  CUBE * T0.W, T0.Y, T0.Z,  
	  ADD * T0.W, PV.W, 0.0,  
	  ADD * T0.Z, T0.Z, 0.0,  
	  ADD * T0.Y, T0.Y, 0.0,  
	  ADD * T0.X, T0.X, 0.0,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
