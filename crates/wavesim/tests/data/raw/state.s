// Stores the initial state a raw dispatch gives each wave, one 64-byte record per workgroup
// at s[0:1] + 64 * (x + 2 * (y + 3 * z)) (run over 2 x 3 x 4 workgroups of one work-item, with
// USER_SGPR_COUNT = 4 and TGID_X/Y/Z_EN and TG_SIZE_EN set): s0..s7 (4 user SGPRs, then
// workgroup id X, Y, Z and the workgroup info), MODE, STATUS and v0 (the packed work-item id).
    s_mul_i32 s20, s6, 3
    s_add_u32 s20, s20, s5
    s_mul_i32 s20, s20, 2
    s_add_u32 s20, s20, s4
    s_lshl_b32 s20, s20, 6
    v_mov_b32 v1, s20
    v_mov_b32 v2, s0
    global_store_b32 v1, v2, s[0:1]
    v_mov_b32 v2, s1
    global_store_b32 v1, v2, s[0:1] offset:4
    v_mov_b32 v2, s2
    global_store_b32 v1, v2, s[0:1] offset:8
    v_mov_b32 v2, s3
    global_store_b32 v1, v2, s[0:1] offset:12
    v_mov_b32 v2, s4
    global_store_b32 v1, v2, s[0:1] offset:16
    v_mov_b32 v2, s5
    global_store_b32 v1, v2, s[0:1] offset:20
    v_mov_b32 v2, s6
    global_store_b32 v1, v2, s[0:1] offset:24
    v_mov_b32 v2, s7
    global_store_b32 v1, v2, s[0:1] offset:28
    s_getreg_b32 s21, hwreg(HW_REG_MODE)
    v_mov_b32 v2, s21
    global_store_b32 v1, v2, s[0:1] offset:32
    s_getreg_b32 s22, hwreg(HW_REG_STATUS)
    v_mov_b32 v2, s22
    global_store_b32 v1, v2, s[0:1] offset:36
    global_store_b32 v1, v0, s[0:1] offset:40
    s_endpgm
