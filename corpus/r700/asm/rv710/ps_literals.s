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
	ALU 5, @4, KC0[], KC1[]
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 4:
	  ADD   T0.X, T0.X, literal.x,  
	  MUL_IEEE   T0.Y, T0.Y, literal.y,  
	  ADD   T0.Z, T0.Z, literal.z,  
	  ADD * T0.W, T0.W, literal.w,  
	1123450880(1.232500e+02), -1058013184(-7.500000e+00)
	1036831949(1.000000e-01), -803929351(-1.000000e+10)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
