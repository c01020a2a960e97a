// Scores to frequencies with AVX2 (internal), for the x86-64-v3 builds of the move model and the
// fast model: model::frequencies_of_scores's frequencies, 8 moves at a time.
#pragma once

#include <cstdint>

#include "codec/model/move_model.h"

#if PGNARC_HAVE_V3
#include <immintrin.h>

namespace pgnarc::codec::model {

// model::frequencies_of_scores, the same frequencies: the frequency of a gap d (clamped to 191,
// whose frequency is 1 as every larger gap's) is E[d mod 16] >> (d div 16), 8 moves at a time.
PGNARC_V3_TARGET inline std::uint32_t frequencies_of_scores_v3(const int* score, int n, std::uint32_t* freq) {
  static_assert(kFrequencyOfGap[kFrequencyGaps - 1] == 1 && (kExpBase[15] >> 11) == 1);
  int best = score[0];
  int i = 0;
  if (n >= 8) {
    __m256i m = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(score));
    for (i = 8; i + 8 <= n; i += 8) m = _mm256_max_epi32(m, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(score + i)));
    m = _mm256_max_epi32(m, _mm256_permute2x128_si256(m, m, 1));
    m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0x4e));
    m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0xb1));
    best = _mm256_cvtsi256_si32(m);
  }
  for (; i < n; ++i) best = score[i] > best ? score[i] : best;
  const __m256i lo = _mm256_setr_epi32(4096, 3922, 3756, 3597, 3444, 3298, 3158, 3025);
  const __m256i hi = _mm256_setr_epi32(2896, 2774, 2656, 2543, 2435, 2332, 2233, 2139);
  const __m256i vbest = _mm256_set1_epi32(best), cap = _mm256_set1_epi32(kFrequencyGaps - 1);
  __m256i sum = _mm256_setzero_si256();
  for (i = 0; i + 8 <= n; i += 8) {
    const __m256i d =
        _mm256_min_epi32(_mm256_sub_epi32(vbest, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(score + i))), cap);
    const __m256i e = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(lo, d)),
                                                           _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(hi, d)),
                                                           _mm256_castsi256_ps(_mm256_slli_epi32(d, 28))));
    const __m256i f = _mm256_srlv_epi32(e, _mm256_srli_epi32(d, 4));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(freq + i), f);
    sum = _mm256_add_epi32(sum, f);
  }
  sum = _mm256_add_epi32(sum, _mm256_permute2x128_si256(sum, sum, 1));
  sum = _mm256_add_epi32(sum, _mm256_shuffle_epi32(sum, 0x4e));
  sum = _mm256_add_epi32(sum, _mm256_shuffle_epi32(sum, 0xb1));
  auto total = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(sum));
  for (; i < n; ++i) total += freq[i] = frequency_of(best - score[i]);
  return total;
}

}  // namespace pgnarc::codec::model

#endif
