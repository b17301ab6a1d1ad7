	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165992
	.long	261
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	CALL_FS
	ALU 19, @6, KC0[CB0:0-32], KC1[]
	EXPORT T4.XYZW
	EXPORT T0.XYZW
	CF_END
	PAD
	ALU clause starting at 6:
	  MUL_IEEE   T1.Z, KC0[1].X, T0.Y,  
	  MUL_IEEE   T1.W, KC0[1].Y, T0.Y,  
	  MUL_IEEE * T2.W, KC0[3].W, T0.W,  
	  MUL_IEEE   T2.Z, KC0[3].Y, T0.W,  
	  MULADD_IEEE * T2.W, KC0[2].W, T0.Z, PS, 
	  MUL_IEEE * T3.W, KC0[1].W, T0.Y,  
	  MULADD_IEEE   T3.Z, KC0[0].W, T0.X, PV.W, 
	  MUL_IEEE * T3.W, KC0[1].Z, T0.Y,  
	  MUL_IEEE * T4.W, KC0[3].Z, T0.W,  
	  MULADD_IEEE   T4.Z, KC0[2].Z, T0.Z, PV.W, 
	  MULADD_IEEE   T3.W, KC0[0].Z, T0.X, T3.W, 
	  ADD * T4.W, T3.Z, T2.W,  
	  MUL_IEEE   T1.Y, KC0[3].X, T0.W,  
	  ADD   T4.Z, PV.W, PV.Z,  
	  MULADD_IEEE * T2.W, KC0[2].Y, T0.Z, T2.Z, 
	  MULADD_IEEE * T1.W, KC0[0].Y, T0.X, T1.W, 
	  ADD   T4.Y, PV.W, T2.W,  
	  MULADD_IEEE   T1.W, KC0[2].X, T0.Z, T1.Y, 
	  MULADD_IEEE * T2.W, KC0[0].X, T0.X, T1.Z, BS:VEC_021/SCL_122
	  ADD * T4.X, PS, PV.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
	.section	".note.GNU-stack","",@progbits
