// Each warp normalises 32 values by the value its lane 0 holds (a per-warp scale).
__global__ void scale_by_leader(float* __restrict__ x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : 0.0f;
    float leader = __shfl_sync(0x0000ffff, v, 0);
    if (i < n && leader != 0.0f) x[i] = v / leader;
}

void scale_by_leader_launch(float* x, int n) {
    scale_by_leader<<<(n + 255) / 256, 256>>>(x, n);
}
