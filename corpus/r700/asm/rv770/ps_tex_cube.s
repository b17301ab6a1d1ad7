	.text
	.section	.AMDGPU.config,"",@progbits
	.long	165968
	.long	4
	.long	165900
	.long	0
	.text
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:                                ; %entry
	ALU 30, @6, KC0[], KC1[]
	TEX 0 @4
	EXPORT T0.XYZW
	CF_END
	Fetch clause starting at 4:
	  TEX_SAMPLE T0.XYZW, T1.XYW0 RID:2 SID:2 CT:NNNN
	ALU clause starting at 6:
	  SETGT   T1.Z, T0.W, literal.x,  
	  MUL_IEEE   T1.W, T0.Y, literal.y,  
	  MUL_IEEE * T2.W, T0.X, literal.y,  
	-1073741824(-2.000000e+00), 1040187392(1.250000e-01)
	  SETGT_DX10   T0.X, T0.W, literal.x,  
	  SETGT_DX10   T0.Y, T0.W, literal.y,  
	  SETGT_DX10   T2.Z, T0.W, 0.0,  
	  CNDGT   T3.W, T0.W, literal.y, PS, 
	  SETGT * T0.W, T0.W, literal.x,  
	1073741824(2.000000e+00), -1073741824(-2.000000e+00)
	  CNDE   T1.X, PS, PV.W, T2.W, 
	  OR_INT   T0.Y, PV.Z, PV.Y,  
	  MUL_IEEE   T0.Z, T0.Z, literal.x,  
	  OR_INT   T2.W, PV.X, PV.Z,  
	  CNDE * T3.W, T1.Z, T1.W, literal.y, 
	1040187392(1.250000e-01), 1073741824(2.000000e+00)
	  CNDE_INT   T1.Y, PV.W, PS, T1.W, 
	  CNDE_INT * T1.W, PV.Y, literal.x, PV.Z, 
	-1073741824(-2.000000e+00), 0(0.000000e+00)
	  CNDE   T1.Z, T0.W, PV.W, literal.x, 
	  MOV * T1.W, 0.0,  
	1073741824(2.000000e+00), 0(0.000000e+00)
	  CUBE   T0.X, T1.Z, T1.Y,  
	  CUBE   T0.Y, T1.Z, T1.X,  
	  CUBE   T0.Z, T1.X, T1.Z,  
	  CUBE * T0.W, T1.Y, T1.Z,  
	  RECIP_IEEE * T0.Z, |PV.Z|,  
	  MULADD_IEEE   T1.X, T0.Y, PS, literal.x, 
	  MULADD_IEEE   T1.Y, T0.X, PS, literal.x, 
	  MOV * T1.W, T0.W,  
	1069547520(1.500000e+00), 0(0.000000e+00)
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.section	".note.GNU-stack","",@progbits
