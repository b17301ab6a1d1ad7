	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	3
	.long	165900
	.long	64
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 5, @4, KC0[], KC1[]
	ALU 1, @10, KC0[], KC1[]
	EXPORT T1.XYZW
	CF_END
	ALU clause starting at 4:
	  ADD * T1.W, T0.W, T1.W,  
	  ADD   T1.Z, T0.Z, T1.Z,  
	  ADD * T0.W, T0.X, -T0.Y,  
	  ADD   T1.Y, T0.Y, T1.Y,  
	  ADD   T2.W, T0.Z, 1.0,  
	  KILLGT * T0.W (MASKED), 0.0, PV.W,  
	ALU clause starting at 10:
	  ADD   T1.X, T0.X, T1.X,  
	  KILLGT * T0.W (MASKED), 0.0, T2.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
