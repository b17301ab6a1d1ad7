; The draw pixel shader for two render targets: attributes 0 and 1 interpolated as in
; draw_ps_gradient.ll (persp-center I, J; P0 + I * P10 + J * P20, P0/P10/P20 from the quad's lanes
; 0/1/2 of lds_param_load with DPP), exported to MRT0 and MRT1 (for per-target and dual-source blending).
define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %ij) {
  %i = extractelement <2 x float> %ij, i32 0
  %j = extractelement <2 x float> %ij, i32 1
  %px = call float @llvm.amdgcn.lds.param.load(i32 0, i32 0, i32 %prim_mask)
  %py = call float @llvm.amdgcn.lds.param.load(i32 1, i32 0, i32 %prim_mask)
  %pz = call float @llvm.amdgcn.lds.param.load(i32 2, i32 0, i32 %prim_mask)
  %pw = call float @llvm.amdgcn.lds.param.load(i32 3, i32 0, i32 %prim_mask)
  %r = call float @chan(float %px, float %i, float %j)
  %g = call float @chan(float %py, float %i, float %j)
  %b = call float @chan(float %pz, float %i, float %j)
  %a = call float @chan(float %pw, float %i, float %j)
  %qx = call float @llvm.amdgcn.lds.param.load(i32 0, i32 1, i32 %prim_mask)
  %qy = call float @llvm.amdgcn.lds.param.load(i32 1, i32 1, i32 %prim_mask)
  %qz = call float @llvm.amdgcn.lds.param.load(i32 2, i32 1, i32 %prim_mask)
  %qw = call float @llvm.amdgcn.lds.param.load(i32 3, i32 1, i32 %prim_mask)
  %r1 = call float @chan(float %qx, float %i, float %j)
  %g1 = call float @chan(float %qy, float %i, float %j)
  %b1 = call float @chan(float %qz, float %i, float %j)
  %a1 = call float @chan(float %qw, float %i, float %j)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float %a, i1 false, i1 true)
  call void @llvm.amdgcn.exp.f32(i32 1, i32 15, float %r1, float %g1, float %b1, float %a1, i1 true, i1 true)
  ret void
}
define internal float @chan(float %p, float %i, float %j) alwaysinline {
  %pi = bitcast float %p to i32
  %q0 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %pi, i32 0, i32 15, i32 15, i1 true)
  %q1 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %pi, i32 85, i32 15, i32 15, i1 true)
  %q2 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %pi, i32 170, i32 15, i32 15, i1 true)
  %w0 = call i32 @llvm.amdgcn.wqm.i32(i32 %q0)
  %w1 = call i32 @llvm.amdgcn.wqm.i32(i32 %q1)
  %w2 = call i32 @llvm.amdgcn.wqm.i32(i32 %q2)
  %p0 = bitcast i32 %w0 to float
  %p10 = bitcast i32 %w1 to float
  %p20 = bitcast i32 %w2 to float
  %t = call float @llvm.fma.f32(float %i, float %p10, float %p0)
  %r = call float @llvm.fma.f32(float %j, float %p20, float %t)
  ret float %r
}
declare float @llvm.amdgcn.lds.param.load(i32, i32, i32)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.wqm.i32(i32)
declare float @llvm.fma.f32(float, float, float)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
