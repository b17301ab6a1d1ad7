	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	260
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	CALL_FS
	ALU 7, @8, KC0[], KC1[]
	EXPORT T0.XYZW
	EXPORT T3.XYZW
	EXPORT T2.XYZW
	EXPORT T1.XYZW
	CF_END
	PAD
	ALU clause starting at 8:
	  ADD * T2.W, T0.W, T1.W,  
	  ADD   T2.Z, T0.Z, T1.Z,  
	  MUL_IEEE * T3.W, T0.W, T1.W,  
	  ADD   T2.Y, T0.Y, T1.Y,  
	  MUL_IEEE * T3.Z, T0.Z, T1.Z,  
	  ADD   T2.X, T0.X, T1.X,  
	  MUL_IEEE   T3.Y, T0.Y, T1.Y,  
	  MUL_IEEE * T3.X, T0.X, T1.X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
