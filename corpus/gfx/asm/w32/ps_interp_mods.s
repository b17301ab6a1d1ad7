	.text
	.amdgcn_target "amdgcn-unknown-amdpal--gfx1100"
	.globl	main                            ; -- Begin function main
	.p2align	8
	.type	main,@function
main:                                   ; @main
; %bb.0:
	s_mov_b32 s1, exec_lo
	s_wqm_b32 exec_lo, exec_lo
	s_mov_b32 m0, s0
	lds_param_load v2, attr0.x wait_vdst:15
	lds_param_load v3, attr1.x wait_vdst:15
	s_mov_b32 exec_lo, s1
	v_interp_p10_f16_f32 v4, v3, v0, v3 wait_exp:0
	v_interp_p10_f32 v5, -v2, v0, -v2 wait_exp:7
	v_interp_p10_f32 v0, v2, -v0, v2 wait_exp:7
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)
	v_interp_p2_f16_f32 v4, v3, v1, v4 clamp wait_exp:7
	v_interp_p2_f32 v5, -v2, v1, v5 clamp wait_exp:7
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_3)
	v_interp_p2_f32 v0, v2, v1, v0 wait_exp:7
	v_cvt_f32_f16_e32 v1, v4
	v_mov_b32_e32 v4, 1.0
	exp mrt0 v5, v1, v0, v4 done
	s_endpgm
.Lfunc_end0:
	.size	main, .Lfunc_end0-main
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 100
; NumSgprs: 2
; NumVgprs: 6
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 2
; NumVGPRsForWavesPerEU: 6
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
        .sgpr_count:     0x2
        .vgpr_count:     0x6
    .registers:
      '0x2c0a (SPI_SHADER_PGM_RSRC1_PS)': 0x22f0000
      '0x2c0b (SPI_SHADER_PGM_RSRC2_PS)': 0
      '0xa1b3 (SPI_PS_INPUT_ENA)': 0x2
      '0xa1b4 (SPI_PS_INPUT_ADDR)': 0x2
      '0xa1b6 (SPI_PS_IN_CONTROL)': 0x8000
...
	.end_amdgpu_pal_metadata
