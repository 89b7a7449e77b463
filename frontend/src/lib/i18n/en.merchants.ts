/**
 * The English strings of the Merchants and Promocode screens. Part of `en`,
 * so other languages fall back to them too.
 */
export const merchantMessages = {
  'noun.merchant': 'merchant',
  'noun.merchants': 'merchants',
  'merchants.title': 'Merchants',
  'merchants.create': 'Create Merchant',
  'merchants.edit': 'Edit Merchant',
  'merchants.details': 'Merchants details',
  'merchants.filter': 'Merchant filter',
  'merchants.chooseCity': 'Choose a city',
  'merchants.partnerFixed': 'The partner of a merchant cannot be changed.',
  'field.partnerCity': 'Partner city',
  'field.userName': 'User name',

  'noun.promoCode': 'promo code',
  'noun.promoCodes': 'promo codes',
  'promoCodes.title': 'Promocode',
  'promoCodes.create': 'Create',
  'promoCodes.created': '{count} promo codes created',
  'promoCodes.createdOne': '1 promo code created',
  'promoCodes.chooseCategory': 'Choose a campaign',
  'field.campaignCategory': 'Campaign category',
  'field.code': 'Code',
  'field.used': 'Used',
  'field.usedDate': 'Used date',
  'field.count': 'Count',
} as const;
