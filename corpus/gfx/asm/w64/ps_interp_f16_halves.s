	.text
	.amdgcn_target "amdgcn-unknown-amdpal--gfx1100"
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	s_mov_b64 s[2:3], exec
	s_wqm_b64 exec, exec
	s_mov_b32 m0, s0
	lds_param_load v2, attr0.x wait_vdst:15
	lds_param_load v3, attr0.y wait_vdst:15
	s_mov_b64 exec, s[2:3]
	v_interp_p10_f16_f32 v4, v2, v0, v2 wait_exp:1
	v_interp_p10_f16_f32 v5, v2, v0, v2 op_sel:[1,0,1,0] wait_exp:7
	v_interp_p10_rtz_f16_f32 v6, v3, v0, v3 wait_exp:0
	v_interp_p10_rtz_f16_f32 v0, v3, v0, v3 op_sel:[1,0,1,0] wait_exp:7
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_interp_p2_f16_f32 v4, v2, v1, v4 wait_exp:7
	v_interp_p2_f16_f32 v5, v2, v1, v5 op_sel:[1,0,0,0] wait_exp:7
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_interp_p2_rtz_f16_f32 v6, v3, v1, v6 wait_exp:7
	v_interp_p2_rtz_f16_f32 v0, v3, v1, v0 op_sel:[1,0,0,0] wait_exp:7
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_cvt_f32_f16_e32 v1, v4
	v_cvt_f32_f16_e32 v7, v5
	s_delay_alu instid0(VALU_DEP_4) | instskip(NEXT) | instid1(VALU_DEP_4)
	v_cvt_f32_f16_e32 v8, v6
	v_cvt_f32_f16_e32 v9, v0
	v_perm_b32 v4, v5, v4, 0x5040100
	v_perm_b32 v0, v0, v6, 0x5040100
	exp mrt0 v1, v7, v8, v9
	exp mrt1 v4, v0, off, off done
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 164
; NumSgprs: 4
; NumVgprs: 10
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 4
; NumVGPRsForWavesPerEU: 10
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 0
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.p2alignl 7, 3214868480
	.fill 96, 4, 3214868480
	.section	".note.GNU-stack","",@progbits
	.amd_amdgpu_isa "amdgcn-unknown-amdpal--gfx1100"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .ps:
        .entry_point:    main
        .scratch_memory_size: 0
        .sgpr_count:     0x4
        .vgpr_count:     0xa
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0002
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x2
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x2
...
	.end_amdgpu_pal_metadata
