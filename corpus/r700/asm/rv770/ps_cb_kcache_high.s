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
	ALU 1, @8, KC0[CB0:0-32], KC1[CB0:32-64]
	ALU 1, @10, KC0[CB1:0-32], KC1[CB0:0-32]
	ALU 0, @12, KC0[CB0:0-32], KC1[CB0:32-64]
	ALU 0, @13, KC0[CB1:0-32], KC1[CB0:0-32]
	ALU 0, @14, KC0[CB0:0-32], KC1[CB0:32-64]
	ALU 0, @15, KC0[CB1:0-32], KC1[]
	EXPORT T0.XYZW
	CF_END
	ALU clause starting at 8:
	  ADD   T0.W, KC0[20].W, KC1[8].W,  
	  ADD * T1.W, KC0[20].Z, KC1[8].Z,  
	ALU clause starting at 10:
	  ADD * T0.W, T0.W, -KC0[3].W,  
	  ADD * T0.Z, T1.W, -KC0[3].Z,  
	ALU clause starting at 12:
	  ADD * T1.W, KC0[20].Y, KC1[8].Y,  
	ALU clause starting at 13:
	  ADD * T0.Y, T1.W, -KC0[3].Y,  
	ALU clause starting at 14:
	  ADD * T1.W, KC0[20].X, KC1[8].X,  
	ALU clause starting at 15:
	  ADD * T0.X, T1.W, -KC0[3].X,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
