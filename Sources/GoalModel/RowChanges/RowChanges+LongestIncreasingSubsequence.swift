extension RowChanges {
    /// Marks one longest strictly increasing subsequence of `values` (patience sorting).
    ///
    /// Among several longest subsequences, the one found keeps the smallest values at each length, so for `[0, 2, 1]`
    /// it keeps `0, 1` and the row with old index 2 is the one reported as moved.
    ///
    /// Complexity: O(n log n) time, O(n) space.
    /// - Parameter values: The old indexes of the kept rows, in new order (distinct).
    /// - Returns: `result[k]` is true when `values[k]` is on the subsequence.
    @usableFromInline
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        // tails[l] = position in `values` of the smallest tail of an increasing run of length l + 1.
        var tails: [Int] = []
        tails.reserveCapacity(values.count)
        var previous = [Int](repeating: -1, count: values.count)
        for k in values.indices {
            let value = values[k]
            if let last = tails.last, values[last] < value {
                previous[k] = last
                tails.append(k)
                continue
            }
            // First run whose tail is >= value (binary search); value replaces that tail.
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value {
                    low = mid + 1
                } else {
                    high = mid
                }
            }
            previous[k] = low > 0 ? tails[low - 1] : -1
            if low == tails.count {
                tails.append(k)
            } else {
                tails[low] = k
            }
        }

        var onSubsequence = [Bool](repeating: false, count: values.count)
        var k = tails.last ?? -1
        while k >= 0 {
            onSubsequence[k] = true
            k = previous[k]
        }
        return onSubsequence
    }
}
