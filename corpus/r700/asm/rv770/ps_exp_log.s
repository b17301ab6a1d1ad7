	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	5
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 24, @4, KC0[], KC1[]
	EXPORT T0.XYZY
	CF_END
	PAD
	ALU clause starting at 4:
	  SETGT   T0.W, literal.x, T0.X,  
	  ADD * T1.W, |T0.Y|, literal.y,  
	-1023672320(-1.260000e+02), 1048576000(2.500000e-01)
	  SETGT   T2.W, literal.x, PS,  
	  CNDE * T3.W, PV.W, 0.0, literal.y, 
	8388608(1.175494e-38), 1115684864(6.400000e+01)
	  ADD   T1.Z, T0.X, PS,  
	  SETGT   T3.W, literal.x, T0.Z,  
	  CNDE * T4.W, PV.W, 1.0, literal.y, 
	-1023672320(-1.260000e+02), 1333788672(4.294967e+09)
	  MUL_IEEE   T0.Y, T1.W, PS,  
	  CNDE   T2.Z, PV.W, 0.0, literal.x, 
	  CNDE   T0.W, T0.W, 1.0, literal.y, BS:VEC_120/SCL_212
	  EXP_IEEE * T0.X, PV.Z,  
	1115684864(6.400000e+01), 528482304(5.421011e-20)
	  MUL_IEEE   T0.X, PS, PV.W,  
	  ADD   T0.Z, T0.Z, PV.Z,  
	  CNDE   T0.W, T2.W, 0.0, literal.x, 
	  LOG_IEEE * T0.Y, PV.Y,  
	1107296256(3.200000e+01), 0(0.000000e+00)
	  ADD   T0.Y, PS, -PV.W,  
	  CNDE   T0.W, T3.W, 1.0, literal.x, 
	  EXP_IEEE * T0.Z, PV.Z,  
	528482304(5.421011e-20), 0(0.000000e+00)
	  MUL_IEEE * T0.Z, PS, PV.W,  
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
